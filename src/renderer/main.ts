/** The renderer's entry: mounts the app into the page. The bridge is picked in connect-bridge.ts. */
import { mount } from 'svelte';
import App from './App.svelte';
import './styles/app.css';

const target = document.getElementById('app');
if (target === null) throw new Error('The page has no #app element.');
mount(App, { target });
